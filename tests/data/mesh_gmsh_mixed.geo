// MinEX test mesh: hexahedra (x in [0,1]) and prisms (x in [1,2]) by
// extrusion, tetrahedra and pyramids (on the hexahedra's quadrilateral
// face x = 0) in x in [-1,0]. Curve 4 and the extruded 14, 12, 23 bound
// the face x = 0 (surface 28).
SetFactory("Built-in");
Point(1) = {0,0,0}; Point(2) = {1,0,0}; Point(3) = {1,1,0}; Point(4) = {0,1,0};
Point(5) = {2,0,0}; Point(6) = {2,1,0};
Line(1) = {1,2}; Line(2) = {2,3}; Line(3) = {3,4}; Line(4) = {4,1};
Line(5) = {2,5}; Line(6) = {5,6}; Line(7) = {6,3};
Curve Loop(1) = {1,2,3,4}; Plane Surface(1) = {1};
Curve Loop(2) = {5,6,7,-2}; Plane Surface(2) = {2};
Transfinite Curve{1,2,3,4,5,6,7} = 3;
Transfinite Surface{1}; Recombine Surface{1};
Extrude {0,0,1} { Surface{1,2}; Layers{2}; Recombine; }
Point(200) = {-1,0,0}; Point(201) = {-1,1,0}; Point(202) = {-1,0,1}; Point(203) = {-1,1,1};
Line(100) = {1,200}; Line(101) = {200,201}; Line(102) = {201,4};
Line(103) = {7,202}; Line(104) = {202,203}; Line(105) = {203,16};
Line(106) = {200,202}; Line(107) = {201,203};
Curve Loop(110) = {100,101,102,4}; Plane Surface(110) = {110};
Curve Loop(111) = {103,104,105,12}; Plane Surface(111) = {111};
Curve Loop(112) = {100,106,-103,-14}; Plane Surface(112) = {112};
Curve Loop(113) = {-102,107,105,-23}; Plane Surface(113) = {113};
Curve Loop(114) = {101,107,-104,-106}; Plane Surface(114) = {114};
Surface Loop(120) = {110,111,112,113,114,28}; Volume(120) = {120};
Transfinite Curve{100:107} = 2;
